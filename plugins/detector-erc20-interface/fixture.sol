pragma solidity ^0.4.24;

contract OldToken {
    mapping(address => uint256) public balanceOf;

    function transfer(address to, uint256 value) public { // expect: erc20-interface
        require(balanceOf[msg.sender] >= value);
        balanceOf[msg.sender] -= value;
        balanceOf[to] += value;
    }
}

contract GoodToken {
    mapping(address => uint256) public balanceOf;

    function transfer(address to, uint256 value) public returns (bool) {
        require(balanceOf[msg.sender] >= value);
        balanceOf[msg.sender] -= value;
        balanceOf[to] += value;
        return true;
    }
}

interface IUSDT {
    function transfer(address to, uint256 value) external;
    function balanceOf(address who) external view returns (uint256);
}

contract Kitty {
    mapping(uint256 => address) public owners;

    function ownerOf(uint256 tokenId) public view returns (address) {
        return owners[tokenId];
    }

    function transfer(address to, uint256 tokenId) public {
        require(owners[tokenId] == msg.sender);
        owners[tokenId] = to;
    }

    function approve(address to, uint256 tokenId) public {}
}

contract Derived is OldToken {
    function burn(uint256 value) public {
        balanceOf[msg.sender] -= value;
    }
}
